# fmiModelDescription without the required modelName.
s| modelName="[^"]*"||
