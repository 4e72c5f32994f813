"""torch.optim.lr_scheduler (in progress)."""
