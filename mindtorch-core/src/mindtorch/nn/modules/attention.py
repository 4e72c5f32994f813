"""torch.nn.modules.attention"""
__all__ = []
