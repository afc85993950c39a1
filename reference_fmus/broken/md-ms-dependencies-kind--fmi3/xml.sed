# two kinds for one dependency
s|<InitialUnknown valueReference="4" dependencies="5"/>|<InitialUnknown valueReference="4" dependencies="5" dependenciesKind="constant constant"/>|
# the glue serves the model's own dependencies per element, which no longer match the edited
# ModelStructure: without the flag api-variable-dependencies does not apply
s|providesPerElementDependencies="true"|providesPerElementDependencies="false"|g
