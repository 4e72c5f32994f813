"""torch.nn.modules.distance"""
__all__ = []
