# canHandleMultipleSetPerTimeInstant on an output
s|name="h" valueReference="1"|& canHandleMultipleSetPerTimeInstant="true"|
