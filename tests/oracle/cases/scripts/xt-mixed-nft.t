# iptables-nft and nft editing the same tables
iptables-nft -A INPUT -s 10.0.0.1 -j DROP
nft add rule ip filter INPUT tcp dport 22 accept
iptables-nft -S INPUT
iptables-nft-save
nft add chain ip filter NFT_ONLY
nft add rule ip filter NFT_ONLY meta mark set 1
iptables-nft -L -n
iptables-nft -A INPUT -j ACCEPT
nft -a list ruleset
nft flush ruleset
iptables-nft -S
