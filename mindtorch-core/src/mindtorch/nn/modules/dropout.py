"""torch.nn.modules.dropout"""
__all__ = []
