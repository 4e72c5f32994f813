"""torch.nn.modules.container"""
__all__ = []
