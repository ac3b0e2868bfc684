"""What pickle stores for an instance of a class, and how a class customizes it.

Classes must live at the top level of an importable module to be pickled (pickle
stores them by name), so this runs as a script rather than as a doctest.
"""

import pickle
import threading

# [plain]
class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


data = pickle.dumps(Point(1, 2))
p = pickle.loads(data)
print("round trip:", type(p).__name__, p.x, p.y)
# The class itself is not in the bytes, only where to find it: module and name.
print("stores the class by name:", b"__main__" in data and b"Point" in data)
# [/plain]

# [state]
class Counter:
    """Holds a lock, which cannot be pickled: drop it on dump, recreate it on load."""

    def __init__(self, name):
        self.name = name
        self.count = 0
        self._lock = threading.Lock()

    def increment(self):
        with self._lock:
            self.count += 1

    def __getstate__(self):
        state = self.__dict__.copy()
        del state["_lock"]
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()


class LockedBox:
    """The same attribute without __getstate__: pickling fails."""

    def __init__(self):
        self._lock = threading.Lock()


c = Counter("steps")
c.increment()
c2 = pickle.loads(pickle.dumps(c))
print("restored:", c2.name, c2.count, "| new lock:", c2._lock is not c._lock)
try:
    pickle.dumps(LockedBox())
except TypeError as error:
    print("without __getstate__:", error)
# [/state]

# [reduce]
class Vocabulary:
    """Pickles only the word list; the index is rebuilt by __init__ on load."""

    def __init__(self, words):
        self.words = list(words)
        self.index = {word: i for i, word in enumerate(self.words)}

    def __reduce__(self):
        return (Vocabulary, (self.words,))


vocab = Vocabulary(["<pad>", "cat", "dog"])
data = pickle.dumps(vocab)
restored = pickle.loads(data)
print("index rebuilt:", restored.index["dog"], "| index stored:", b"index" in data)
# [/reduce]

# [by-name]
data = pickle.dumps(Point(3, 4))
del Point  # the class is renamed, moved or deleted after saving
try:
    pickle.loads(data)
except AttributeError as error:
    print("class gone:", str(error).split(" on ")[0])
# [/by-name]
