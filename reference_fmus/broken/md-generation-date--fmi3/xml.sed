# not an xs:dateTime
s| author="fmucheck"|& generationDateAndTime="2023-10-09 20:45:22.102681"|
