"""torch.nn.modules.transformer"""
__all__ = []
