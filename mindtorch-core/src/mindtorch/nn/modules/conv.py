"""torch.nn.modules.conv"""
__all__ = []
