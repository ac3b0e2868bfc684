import warnings


def scale(x, factor=3, *, clip=None):  # new default, new keyword: one output and one signature change
    return x * factor


def name():
    return "fakelib"


def legacy():
    warnings.warn("legacy() is deprecated", DeprecationWarning, stacklevel=2)  # a new warning
    return 1
