# A tab (character reference) in generationTool, an xs:normalizedString (B-007).
s|generationTool="fmucheck mdgen"|generationTool="fmucheck\&#9;mdgen"|
