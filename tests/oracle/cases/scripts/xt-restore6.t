# ip6tables-nft-restore and ip6tables-nft-save
ip6tables-nft-restore @FILE.rules
ip6tables-nft-save
ip6tables-nft-restore --noflush @FILE.extra
ip6tables-nft-save
nft list ruleset
