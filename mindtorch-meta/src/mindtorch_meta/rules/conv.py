"""Meta inference rules: conv ops (the checks and shapes of mindtorch._ops.decls.conv).
convolution_backward and the public convolutions run through their decompositions."""
from mindtorch._ops.decls import conv as C


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding,
                groups):
    plan = C.conv_plan(input, weight, bias, stride, padding, dilation, transposed,
                       output_padding, groups)
    return plan[0], plan[1]


def im2col(self, kernel_size, dilation, padding, stride):
    return C.im2col_plan(self, kernel_size, dilation, padding, stride)[0], self.dtype


def col2im(self, output_size, kernel_size, dilation, padding, stride):
    return C.col2im_plan(self, output_size, kernel_size, dilation, padding, stride)[0], \
        self.dtype


RULES = {"convolution": convolution, "im2col": im2col, "col2im": col2im}
