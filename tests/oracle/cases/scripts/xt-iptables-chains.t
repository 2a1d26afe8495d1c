# iptables-nft: user chains -N/-X/-E, policies -P, flush -F, zero -Z
iptables-nft -N LOGDROP
iptables-nft -A LOGDROP -j LOG --log-prefix "drop: "
iptables-nft -A LOGDROP -j DROP
iptables-nft -N EMPTY
iptables-nft -A INPUT -p tcp --dport 23 -j LOGDROP
iptables-nft -P INPUT DROP
iptables-nft -P FORWARD DROP
iptables-nft -P OUTPUT ACCEPT
iptables-nft -E EMPTY RENAMED
iptables-nft -X LOGDROP
iptables-nft -X RENAMED
iptables-nft -Z
iptables-nft -Z INPUT
iptables-nft -S
iptables-nft -F LOGDROP
iptables-nft -D INPUT 1
iptables-nft -X LOGDROP
iptables-nft -F
iptables-nft -X
iptables-nft -S
iptables-nft -P INPUT ACCEPT
iptables-nft -S
