# The energy output E renamed to x, the name of the position (B-201).
s|name="E" valueReference="5"|name="x" valueReference="5"|
