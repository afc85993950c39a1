# no modelName
s| modelName="[^"]*"||
