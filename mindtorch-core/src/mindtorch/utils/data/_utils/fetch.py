"""Fetchers (torch.utils.data._utils.fetch): one batch (or sample) of a dataset for a
sampler's index, in the main process (num_workers=0) or a worker."""
from ...._lazy import lazy

np = lazy("numpy", globals())


class _BaseDatasetFetcher:
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset, self.auto_collation = dataset, auto_collation
        self.collate_fn, self.drop_last = collate_fn, drop_last

    def fetch(self, possibly_batched_index):
        raise NotImplementedError


class _MapDatasetFetcher(_BaseDatasetFetcher):
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        super().__init__(dataset, auto_collation, collate_fn, drop_last)
        from ..dataset import TensorDataset
        from .collate import default_collate
        # a TensorDataset batch under default_collate is each tensor's rows at the indices:
        # one gather per tensor gives the same batch as indexing and stacking every row
        # (for plain int indices; stacking records its own grad_fn, or fails in a worker)
        self.gather = (auto_collation and collate_fn is default_collate
                       and type(dataset) is TensorDataset
                       and not any(t.requires_grad for t in dataset.tensors))

    def fetch(self, index):
        d = self.dataset
        if not self.auto_collation:
            return self.collate_fn(d[index])
        if self.gather and all(type(i) is int for i in index):
            from .... import from_numpy
            rows = from_numpy(np.asarray(index, dtype=np.int64))
            return [t[rows] for t in d.tensors]
        getitems = getattr(d, "__getitems__", None)
        return self.collate_fn(getitems(index) if getitems else [d[i] for i in index])


class _IterableDatasetFetcher(_BaseDatasetFetcher):
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        super().__init__(dataset, auto_collation, collate_fn, drop_last)
        self.dataset_iter, self.ended = iter(dataset), False

    def fetch(self, index):
        if self.ended:
            raise StopIteration
        if not self.auto_collation:
            return self.collate_fn(next(self.dataset_iter))
        data = []
        for _ in index:
            try:
                data.append(next(self.dataset_iter))
            except StopIteration:
                self.ended = True
                break
        if not data or (self.drop_last and len(data) < len(index)):
            raise StopIteration
        return self.collate_fn(data)
