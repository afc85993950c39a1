# category logEvents twice
/<Category name="logEvents"/p
