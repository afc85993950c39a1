# an Alias named like the variable g (§2.4.7.3)
s|\(<Float64 name="e" [^>]*\)/>|\1><Alias name="g"/></Float64>|
