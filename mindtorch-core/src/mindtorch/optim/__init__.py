"""mindtorch.optim (torch.optim)"""
