# Stands in for a missing jieba: importing it fails like an absent package.
raise ImportError("No module named 'jieba' (fixture)")
