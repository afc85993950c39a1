# an empty instantiationToken (§2.4.1; the binary keeps its real token, as the 2.0 fixture)
s/ instantiationToken="[^"]*"/ instantiationToken=""/
