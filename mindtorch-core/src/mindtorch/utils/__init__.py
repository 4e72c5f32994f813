"""mindtorch.utils"""
