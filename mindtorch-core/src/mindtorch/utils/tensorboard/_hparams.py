"""The hparams plugin's three summaries: the experiment (hyperparameter and metric
columns), a session start (this run's values) and a session end."""
import logging

import mindtorch

from ._convert_np import make_np

logger = logging.getLogger(__name__)


def _check_dicts(hparam_dict, metric_dict, domains):
    for name, value in (("hparam_dict", hparam_dict), ("metric_dict", metric_dict)):
        if not isinstance(value, dict):
            message = f"parameter: {name} should be a dictionary, nothing logged."
            logger.warning(message)
            raise TypeError(message)
    if not isinstance(domains, dict):
        raise TypeError(
            "parameter: hparam_domain_discrete should be a dictionary, nothing logged.")
    for k, v in domains.items():
        if (k not in hparam_dict or not isinstance(v, list)
                or not all(isinstance(d, type(hparam_dict[k])) for d in v)):
            raise TypeError(f"parameter: hparam_domain_discrete[{k}] should be a list of "
                            f"same type as hparam_dict[{k}].")


def _kind(value):
    """(protobuf Value field, hparams DataType, value) for one hyperparameter; bools are
    ints, so they are logged as numbers (as PyTorch does)."""
    if isinstance(value, (int, float)):
        return "number_value", "DATA_TYPE_FLOAT64", value
    if isinstance(value, str):
        return "string_value", "DATA_TYPE_STRING", value
    if isinstance(value, mindtorch.Tensor):
        return "number_value", "DATA_TYPE_FLOAT64", make_np(value)[0]
    raise ValueError("value should be one of int, float, str, bool, or torch.Tensor")


def hparams(hparam_dict=None, metric_dict=None, hparam_domain_discrete=None):
    """Summaries (experiment, session start, session end) of one run's hyperparameters
    `hparam_dict` and the metric tags `metric_dict` names; `hparam_domain_discrete` lists
    the values a hyperparameter can take."""
    from google.protobuf import struct_pb2
    from tensorboard.compat.proto.summary_pb2 import Summary, SummaryMetadata
    from tensorboard.plugins.hparams import api_pb2 as api
    from tensorboard.plugins.hparams import metadata as md
    from tensorboard.plugins.hparams import plugin_data_pb2 as pd

    domains = hparam_domain_discrete or {}
    _check_dicts(hparam_dict, metric_dict, domains)
    infos, start = [], pd.SessionStartInfo()
    for k, v in hparam_dict.items():
        if v is None:
            continue
        field, dtype, v = _kind(v)
        setattr(start.hparams[k], field, v)
        domain = None
        if k in domains and not isinstance(hparam_dict[k], mindtorch.Tensor):
            domain = struct_pb2.ListValue(
                values=[struct_pb2.Value(**{field: d}) for d in domains[k]])
        infos.append(api.HParamInfo(name=k, type=api.DataType.Value(dtype),
                                    domain_discrete=domain))

    def summary(tag, **content):
        data = pd.HParamsPluginData(version=md.PLUGIN_DATA_VERSION, **content)
        smd = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(
            plugin_name=md.PLUGIN_NAME, content=data.SerializeToString()))
        return Summary(value=[Summary.Value(tag=tag, metadata=smd)])

    experiment = api.Experiment(
        hparam_infos=infos, metric_infos=[api.MetricInfo(name=api.MetricName(tag=k))
                                          for k in metric_dict])
    end = pd.SessionEndInfo(status=api.Status.Value("STATUS_SUCCESS"))
    return (summary(md.EXPERIMENT_TAG, experiment=experiment),
            summary(md.SESSION_START_INFO_TAG, session_start_info=start),
            summary(md.SESSION_END_INFO_TAG, session_end_info=end))

