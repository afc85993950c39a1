# serialization is not declared, so only eq-fmu-state sees the partial restore
s/canSerializeFMUstate="true"/canSerializeFMUstate="false"/g
