# iptables-nft-restore with compat matches, then -save and a noflush change
iptables-nft-restore @FILE.rules
iptables-nft-save
iptables-nft-restore --noflush @FILE.extra
iptables-nft-save
nft -a list ruleset
