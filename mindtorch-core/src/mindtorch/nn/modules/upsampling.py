"""torch.nn.modules.upsampling"""
__all__ = []
