# canHandleMultipleSetPerTimeInstant on the output E (inputs only, B-217).
s|name="E" valueReference="5"|& canHandleMultipleSetPerTimeInstant="true"|
