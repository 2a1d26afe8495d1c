# iptables-nft errors: missing rule/chain, busy chain, bad policy, bad position, unknown target
iptables-nft -D INPUT -s 1.2.3.4 -j DROP
iptables-nft -D INPUT 5
iptables-nft -A NOPE -j ACCEPT
iptables-nft -N USER
iptables-nft -N USER
iptables-nft -A INPUT -j USER
iptables-nft -X USER
iptables-nft -P USER DROP
iptables-nft -P INPUT REJECT
iptables-nft -I INPUT 10 -j ACCEPT
iptables-nft -R INPUT 5 -j ACCEPT
iptables-nft -A INPUT -j NOSUCHTARGET
iptables-nft -A INPUT -m nosuchmatch -j ACCEPT
iptables-nft -E USER INPUT
iptables-nft -t nat -A INPUT -j MASQUERADE
iptables-nft -t nosuchtable -L
iptables-nft -A INPUT -s 999.1.1.1 -j DROP
iptables-nft -S
