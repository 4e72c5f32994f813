"""mindtorch.utils.data (torch.utils.data)"""
