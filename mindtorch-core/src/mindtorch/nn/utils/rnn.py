"""torch.nn.utils.rnn: padding and packing of variable-length sequences."""
