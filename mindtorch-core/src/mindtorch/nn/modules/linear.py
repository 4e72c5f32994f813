"""torch.nn.modules.linear"""
__all__ = []
