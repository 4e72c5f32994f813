"""torch.nn.utils"""
