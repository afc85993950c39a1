# a tab in a normalizedString
s|generationTool="fmucheck mdgen"|generationTool="fmucheck\&#9;mdgen"|
