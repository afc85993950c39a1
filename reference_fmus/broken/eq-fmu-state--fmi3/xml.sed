# serialization is not declared, so only eq-fmu-state sees the partial restore
s/canSerializeFMUState="true"/canSerializeFMUState="false"/g
