"""torch.nn.init"""
