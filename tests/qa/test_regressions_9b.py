"""Regression tests for what QA round 9b (printing, data loading, serialization, mixed
precision) found, each against torch."""
import mindtorch
import pytest
from reference import same_outcome

torch = pytest.importorskip("torch")

BOTH = (mindtorch, torch)


def test_dataloader_iterator_class_names():
    # libraries (Lightning, accelerate) name these classes
    for lib in BOTH:
        dl = lib.utils.data.DataLoader(list(range(4)), batch_size=2)
        mod = lib.utils.data.dataloader
        assert type(iter(dl)) is mod._SingleProcessDataLoaderIter
        assert issubclass(mod._MultiProcessingDataLoaderIter, mod._BaseDataLoaderIter)


@pytest.mark.parametrize("kw", [{}, {"num_replicas": 2}, {"rank": 0}])
def test_distributed_sampler_without_process_group(kw):
    same_outcome(lambda L: L.utils.data.DistributedSampler(range(4), **kw))


def test_load_corrupted_zip_message():
    # a truncated checkpoint: PyTorch's whole explanation of the miniz error
    def load(L):
        import io
        b = io.BytesIO()
        L.save({"w": L.ones(3)}, b)
        L.load(io.BytesIO(b.getvalue()[:100]))
    assert "checkpoint file is corrupted" in same_outcome(load)[1]
