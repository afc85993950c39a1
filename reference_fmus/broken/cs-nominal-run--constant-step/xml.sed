# the capability the glue's FMUC_GLUE_CONSTANT_STEP holds fmucheck to (DEFINES)
s|canHandleVariableCommunicationStepSize="true"|canHandleVariableCommunicationStepSize="false"|
