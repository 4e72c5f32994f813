"""torch.nn.modules.activation"""
__all__ = []
