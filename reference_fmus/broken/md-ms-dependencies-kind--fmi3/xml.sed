# two kinds for one dependency
s|<InitialUnknown valueReference="4" dependencies="5"/>|<InitialUnknown valueReference="4" dependencies="5" dependenciesKind="constant constant"/>|
