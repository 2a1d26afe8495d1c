# iptables-nft-restore: a bad line aborts the whole restore; other tools' errors
iptables-nft-restore @FILE.rules
iptables-nft-save
ip6tables-nft -A INPUT -s 1.2.3.4 -j DROP
ebtables-nft -A INPUT -p NOPE -j DROP
ebtables-nft -D INPUT -j DROP
ebtables-nft -X NOPE
arptables-nft -A INPUT --opcode 99999 -j DROP
arptables-nft -D INPUT 3
ebtables-nft-restore < @FILE.eb
ebtables-nft-save
