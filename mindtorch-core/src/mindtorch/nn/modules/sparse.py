"""torch.nn.modules.sparse"""
__all__ = []
