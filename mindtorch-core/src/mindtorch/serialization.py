"""mindtorch.save / mindtorch.load (torch.save / torch.load)."""


def save(obj, f, *args, **kwargs):
    raise NotImplementedError("mindtorch.save is being written (issue 5)")


def load(f, *args, **kwargs):
    raise NotImplementedError("mindtorch.load is being written (issue 5)")
