# ebtables-nft-restore and arptables-nft-restore read stdin
ebtables-nft-restore < @FILE.eb
ebtables-nft-save
arptables-nft-restore < @FILE.arp
arptables-nft-save
nft list ruleset
