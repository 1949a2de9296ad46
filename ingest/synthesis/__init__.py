"""The synthesis of studies' effects: pooling (``pooling.py``: a random-effects estimate with its
intervals, tau² and I²), certainty, the answer's words."""
