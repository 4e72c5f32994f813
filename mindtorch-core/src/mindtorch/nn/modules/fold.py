"""torch.nn.modules.fold"""
__all__ = []
