"""torch.nn.modules.rnn"""
__all__ = []
