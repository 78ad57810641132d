{S[i,j,k,l]->PE[i%8,j%8]}
{S[i,j,k,l]->T[floor(i/8),floor(j/8),k,l]}
