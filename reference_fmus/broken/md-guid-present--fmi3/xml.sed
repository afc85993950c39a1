# a blank instantiationToken (§2.4.1)
s/ instantiationToken="[^"]*"/ instantiationToken=" "/
