# FMI 1.0: "height" shares vr 1 with h but loses its alias="alias": two noAlias variables on one
# valueReference, an unmarked alias set (fmi1-rules B-303).
s| causality="output" alias="alias">| causality="output">|
