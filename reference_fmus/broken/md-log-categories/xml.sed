# Category logAll declared twice (B-110).
/<Category name="logAll"/p
