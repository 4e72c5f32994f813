"""torch.nn.modules.flatten"""
__all__ = []
