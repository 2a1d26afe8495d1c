# iptables-nft-restore: full restore, noflush restore, test mode
iptables-nft-restore @FILE.rules
iptables-nft-save
iptables-nft-restore --noflush @FILE.extra
iptables-nft-save
iptables-nft-restore -t @FILE.rules
iptables-nft-restore @FILE.rules
iptables-nft-save
nft -a list ruleset
