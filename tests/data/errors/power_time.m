{S[i,j,k]->PE[i%2,j%2]}
{S[i,j,k]->T[floor(i/10^19),floor(j/2),i%2+j%2+k]}
