def scale(x, factor=2):
    return x * factor


def name():
    return "fakelib"


def legacy():
    return 1
